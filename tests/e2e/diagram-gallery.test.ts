import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDiagrams, writeGallery } from '../../scripts/diagrams/generate';
import { sessionMachine } from '../../src/machines/session.machine';
import { openBrowser } from '../support/browser';
import { PlayRecord } from '../support/model';

// The gallery is for people without tools: it must draw every machine in a plain browser.
describe('the machine gallery (npm run diagrams)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(() => browser?.close());

  it('draws every machine, grouped by area, with what the last test run reached', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gallery-'));
    const record = new PlayRecord();
    record.note(new Set(['session.signedOut']), ['session.signedOut']);
    record.note(new Set(['session.loggingIn']), []);
    record.write(sessionMachine, 'session (gallery test)', path.join(dir, 'records'));
    const diagrams = await generateDiagrams();
    const file = path.join(dir, 'gallery.html');
    writeGallery(diagrams, file, path.join(dir, 'records'));

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => document.body.dataset.done === 'true', null, {
      timeout: 240_000,
      polling: 100,
    });

    const machines = await page.$$eval('section.machine', (sections) =>
      sections.map((s) => ({
        name: (s as HTMLElement).dataset.machine,
        drawn: s.querySelectorAll('pre[data-rendered] svg').length,
        failed: s.querySelectorAll('pre[data-failed]').length,
      })),
    );
    expect(machines.map((m) => m.name).sort()).toEqual(
      diagrams.map((d) => d.file.replace(/\.md$/, '')).sort(),
    );
    expect(machines.filter((m) => m.drawn === 0 || m.failed > 0)).toEqual([]);
    expect(machines.find((m) => m.name === 'authFlow')!.drawn).toBe(7);
    expect(await page.getByRole('heading', { level: 2, name: 'Anmelden und Konto' }).count()).toBe(
      1,
    );

    const session = page.locator('#m-session');
    expect(await session.locator('p.muted').textContent()).toMatch(
      /2 von \d+ Ruhezuständen erreicht, 1 geprüft/,
    );
    await session.getByText('Zustände', { exact: true }).click();
    const row = session.locator('tr', { has: page.locator('code', { hasText: /^signedOut$/ }) });
    expect(await row.locator('td').nth(2).textContent()).toBe('ja');
    expect(await page.locator('#m-booking p.muted').textContent()).toContain(
      'kein modellbasierter Test',
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
