/** Entry point of the desktop app (built to out/main/index.js, package.json's `main`). */
import { startApp } from './app-lifecycle.js';

startApp();
