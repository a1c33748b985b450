import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { inspect } from './app/inspector';
import { createAppServices } from './app/services';
import { createI18n } from './i18n';
import './app/app.css';

// App-wide things are created once, outside React (StrictMode mounts components twice).
const { i18n } = createI18n();
const services = createAppServices({ inspect });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App services={services} i18n={i18n} />
  </StrictMode>,
);
