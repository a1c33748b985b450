// jsdom ships no type declarations and @types/jsdom is not installed; this covers what
// tests/support/hanko-sdk.ts uses (the unit project only names jsdom as its environment).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { url?: string; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis & { close(): void };
  }
}
