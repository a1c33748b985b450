import { describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../server/auth-provider/config';
import { allowedOrigins } from '../../server/auth-provider/cors';

describe('allowed CORS origins of the provider', () => {
  it('default to the origin of PUBLIC_URL', () => {
    expect(allowedOrigins(loadAuthConfig({}), 'https://sprechstunde.example.org/app/')).toEqual([
      'https://sprechstunde.example.org',
    ]);
  });

  it('come from AUTH_ALLOWED_ORIGINS as origins', () => {
    const auth = loadAuthConfig({
      AUTH_ALLOWED_ORIGINS: ' https://a.example.org/ , http://localhost:5173,',
    });
    expect(allowedOrigins(auth, 'http://localhost:3000')).toEqual([
      'https://a.example.org',
      'http://localhost:5173',
    ]);
  });

  it('refuse what is not an origin', () => {
    expect(() => loadAuthConfig({ AUTH_ALLOWED_ORIGINS: 'https://ok.example.org,*' })).toThrow(
      /AUTH_ALLOWED_ORIGINS/,
    );
  });
});
