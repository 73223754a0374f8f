// The business dashboard's entry: mounts the app into the shell's #app.
import { render } from 'preact';
import { App } from './app.tsx';
import { prefetchInbox } from './screens/inbox.tsx';
import './styles.css';

// A deep link to the inbox starts its list beside GET /auth/session instead of after it.
prefetchInbox(location.pathname, new URLSearchParams(location.search));
render(<App />, document.getElementById('app')!);
