// The business dashboard's entry: mounts the app into the shell's #app.
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
