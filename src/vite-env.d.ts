/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' attaches the Stately inspector in development builds (see src/app/inspector.ts). */
  readonly VITE_INSPECT?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
