// fontkit (pdfkit's font parser) ships no types; the invoice PDF needs only `create`.
declare module 'fontkit' {
  export function create(buffer: Uint8Array): unknown;
}
