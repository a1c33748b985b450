// `npm start`: brings the web app and the server bundle up to date with their sources, then
// runs the server. Plain Node 24 runs this file (type stripping); the web build runs in a
// child process beside the server's database start, and the server waits for it before it
// lists the built files (server/web/build-gate.ts).
import { pathToFileURL } from 'node:url';
import { waitForWebBuild } from '../server/web/build-gate.ts';
import { buildServerBundle, SERVER_BUNDLE, serverBundleIsStale } from './server-bundle.ts';
import { buildWeb, webBuildIsStale } from './web-build.ts';

if (webBuildIsStale()) waitForWebBuild(buildWeb().then(() => undefined));
if (serverBundleIsStale()) await buildServerBundle();
await import(pathToFileURL(SERVER_BUNDLE).href);
