-- An erasure forgets a question's asker as it forgets a reviewer: the question keeps its text (or
-- the removal notice) and its answers, without the address.
alter table plaudit.questions alter column asker_email drop not null;
comment on column plaudit.questions.asker_email is
  'Where the confirmation link was sent; null once the asker''s address was erased (plaudit.erase_reviewer).';
