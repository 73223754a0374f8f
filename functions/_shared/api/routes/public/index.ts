// The public routes, without a key (CORS `*`, the public rate limit): a module per concern.
import { publicCors } from '../../middleware/public-access/index.ts';
import { router } from '../define.ts';
import { embedReads } from './embed.ts';
import { fragmentReads } from './fragments.ts';
import { productReads } from './products.ts';
import { questionPublicRoutes } from './questions.ts';
import { profileReads } from './profiles.ts';
import { transparencyReads } from './transparency.ts';
import { signalWrites } from './signals.ts';
import { summaryReads } from './summaries.ts';
import { verificationReads } from './verifications.ts';

export { Layout, Theme } from './embed.ts';
export { BUSINESS_NOT_FOUND } from './shared.ts';

export const publicData = router();
publicData.use('/public/*', publicCors({ methods: ['GET', 'HEAD'] }));
// A visitor's helpful vote and report come from the widget, on any site.
publicData.use('/public/reviews/*', publicCors({ methods: ['POST'] }));
// A shopper's question, a buyer's answer and a vote on an answer come from the widget too.
publicData.use('/public/questions/*', publicCors({ methods: ['POST'] }));
publicData.use('/public/answers/*', publicCors({ methods: ['POST'] }));
publicData.route('/', embedReads);
publicData.route('/', fragmentReads);
publicData.route('/', profileReads);
publicData.route('/', productReads);
publicData.route('/', summaryReads);
publicData.route('/', verificationReads);
publicData.route('/', transparencyReads);
publicData.route('/', signalWrites);
publicData.route('/', questionPublicRoutes);
