import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// `npm test` runs these files beside the other parts on every core: a `findBy` that needs two
// seconds on a busy machine is not a failure. A missing element still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

// Testing Library unmounts automatically only when test globals are on; they are off here.
afterEach(() => {
  cleanup();
});
