-- A visitor's report becomes a notice in the sense of the EU's Digital Services Act (Art. 16): it
-- says whether the review is illegal (and under which law) or against the business's policy, may
-- leave an address for the acknowledgement and the decision, and states that it is made in good
-- faith. Its resolution records the decision: the review hidden or kept.
alter table plaudit.review_reports
  add column kind text not null default 'policy'
    constraint review_reports_kind_check check (kind in ('illegal', 'policy')),
  add column legal_ground text
    constraint review_reports_legal_ground_check check (char_length(legal_ground) between 1 and 500),
  add column reporter_email text
    constraint review_reports_reporter_email_check check (char_length(reporter_email) <= 320),
  add column good_faith boolean,
  add column decision text
    constraint review_reports_decision_check check (decision in ('hidden', 'kept')),
  add constraint review_reports_illegal_names_its_ground check (kind <> 'illegal' or legal_ground is not null),
  add constraint review_reports_decided_when_resolved check (decision is null or status = 'resolved');

comment on column plaudit.review_reports.kind is 'illegal (a notice of illegal content, DSA Art. 16) or policy (against the business''s review policy).';
comment on column plaudit.review_reports.legal_ground is 'The law the reporter names for an illegal review; required for kind illegal.';
comment on column plaudit.review_reports.reporter_email is 'Where the acknowledgement and the decision go: personal data, never public, erased with the address.';
comment on column plaudit.review_reports.good_faith is 'The reporter stated that the notice is accurate and made in good faith; null for reports made before it was asked.';
comment on column plaudit.review_reports.decision is 'What the resolution did to the review: hidden or kept; null while open and for reports resolved before decisions were recorded.';

create index review_reports_reporter_email on plaudit.review_reports (org_id, lower(reporter_email))
  where reporter_email is not null;
