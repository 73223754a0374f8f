// The e-mailed verification link and the verification it confirms.
import { z } from '@hono/zod-openapi';
import { ApiError } from '../../http/errors.ts';
import { errorResponseSpec, json } from '../../http/schemas.ts';
import { publicRoute, router } from '../define.ts';
import { runAsPublic } from '../../../core/db/roles.ts';

const VERIFICATION_TOKEN = /^[0-9A-Za-z]{20,100}$/;

const TokenParams = z.object({
  token: z.string().max(200).openapi({
    param: { name: 'token', in: 'path' },
    description: 'The verification token from the e-mailed link',
  }),
});

// The e-mail verification link's answer: a small page, for people.
// What verifying a review by its e-mailed token answered, as the API says it.
const VERIFICATION_REFUSALS = {
  already_used: [409, 'This verification link has already been used'],
  not_pending: [409, 'This review does not need verifying any more'],
  held: [409, 'This review is being checked by the business before it is published'],
  expired: [410, 'This verification link has expired: links are valid for 7 days'],
  invalid: [404, 'Verification link not found'],
} as const;

export const verificationReads = router()
  .openapi(
    publicRoute({
      method: 'get',
      path: '/public/verifications/{token}',
      operationId: 'public.openVerificationLink',
      tags: ['Public data'],
      summary: 'Open the e-mailed verification link',
      description:
        "The link in the verification e-mail (`{PUBLIC_URL}/api/v1/public/verifications/{token}`). Opening it verifies nothing (mail providers' link scanners open every link): it answers 303 to the hosted page `{PUBLIC_URL}/verify/{token}`, whose button confirms. A malformed token answers 404.",
      request: { params: TokenParams },
      responses: {
        303: { description: 'To the hosted confirmation page', headers: { Location: { schema: { type: 'string' } } } },
        404: errorResponseSpec('Not a valid link'),
      },
    }),
    (c) => {
      const { token } = c.req.valid('param');
      if (!VERIFICATION_TOKEN.test(token)) throw new ApiError(404, VERIFICATION_REFUSALS.invalid[1]);
      c.header('Cache-Control', 'no-store');
      c.header('Referrer-Policy', 'no-referrer');
      return c.redirect(`${c.var.config.publicUrl}/verify/${token}`, 303) as never;
    },
  )
  .openapi(
    publicRoute({
      method: 'post',
      path: '/public/verifications/{token}',
      operationId: 'public.verify',
      tags: ['Public data'],
      summary: 'Verify a review with its e-mailed token',
      description:
        "Verifies the review once, for a landing page of your own: the token is the one in the verification e-mail's link. Already used, nothing to verify, or held for the business's check: 409; expired: 410; not valid: 404.",
      request: { params: TokenParams },
      responses: {
        200: json(z.object({ status: z.literal('verified') }), 'The review is verified'),
        404: errorResponseSpec('Not a valid link'),
        409: errorResponseSpec('Already used, or the review is no longer pending'),
        410: errorResponseSpec('Expired'),
      },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      c.header('Cache-Control', 'no-store');
      if (!VERIFICATION_TOKEN.test(token)) throw new ApiError(404, VERIFICATION_REFUSALS.invalid[1]);
      const [row] = await runAsPublic(c.var.sql, (tx) =>
        tx<{ outcome: string }[]>`
        select outcome from plaudit.verify_review_by_token(${token})`, { onPrimary: true });
      if (row.outcome === 'verified') return c.json({ status: 'verified' as const }, 200);
      const [status, message] = VERIFICATION_REFUSALS[row.outcome as keyof typeof VERIFICATION_REFUSALS] ??
        VERIFICATION_REFUSALS.invalid;
      throw new ApiError(status, message);
    },
  );
