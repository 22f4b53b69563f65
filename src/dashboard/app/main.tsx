import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { signIn } from './api.js';
import './app.css';

// Once, before the first render: StrictMode runs effects twice, and a login token works once.
const signedIn = signIn();
// A new login link pasted into this tab changes only the fragment, which loads nothing: load it.
window.addEventListener('hashchange', () => {
  if (new URLSearchParams(window.location.hash.slice(1)).has('token')) window.location.reload();
});
createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App signedIn={signedIn} />
  </StrictMode>,
);
