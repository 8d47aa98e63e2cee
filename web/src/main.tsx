import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { SessionStore } from './auth/session';
import { createResources } from './state/resources';
import { applyTheme, initialTheme } from './theme/theme';
import { loadActiveTheme } from './theme/active-theme';
import { lang } from './i18n';
import 'uplot/dist/uPlot.min.css';
import './index.css';

document.documentElement.lang = lang;
applyTheme(initialTheme());
void loadActiveTheme();
const session = new SessionStore();
const resources = createResources();
void session.init();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App session={session} resources={resources} />
  </StrictMode>,
);
