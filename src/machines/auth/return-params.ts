/** URL parameters of a third-party return (protocol §3.6 `thirdparty`). */
export const RETURN_PARAMS = ['hanko_token', 'error', 'error_description'] as const;

/** Whether this address is a return from a third-party or SAML provider. */
export const isThirdPartyReturn = (search: string) => {
  const params = new URLSearchParams(search);
  return RETURN_PARAMS.some((p) => params.has(p));
};
