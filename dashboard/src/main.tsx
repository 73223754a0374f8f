// The business dashboard's entry: mounts the app into the shell's #app.
import { render } from 'preact';
import { App, loadSession } from './app.tsx';
import { prefetchInbox } from './screens/inbox.tsx';
import './styles.css';

// The session and, on a deep link to the inbox, its list are asked for at once, before the first
// render: waiting for an effect would wait for a paint first.
prefetchInbox(location.pathname, new URLSearchParams(location.search));
render(<App first={loadSession()} />, document.getElementById('app')!);
