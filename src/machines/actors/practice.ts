import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { components } from '../../../shared/contract/product';
import type { LoadedRecord } from '../record-form.machine';
import { loadRecordActor, saveRecordActor } from './staff/record';

/**
 * The practice settings: `GET /legal` for the public imprint and privacy pages,
 * `GET`/`PUT /admin/practice-settings` for the superadmin's form. There is one set, so the
 * record form's id is a constant.
 */
export type LegalInfo = components['schemas']['LegalInfo'];
export type PracticeSettings = components['schemas']['PracticeSettings'];

/** The record form's id of the one set of practice settings. */
export const PRACTICE_SETTINGS_ID = 'practice';

export const loadLegalInfoActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(
    async ({ signal }): Promise<LegalInfo> => (await api.GET('/legal', { signal })).data!,
  );

export const loadPracticeSettingsActor = (
  api: ApiClient,
  toValues: (s: PracticeSettings) => LoadedRecord['values'],
) =>
  loadRecordActor(
    async (_id, signal) => (await api.GET('/admin/practice-settings', { signal })).data!,
    toValues,
  );

/** `PUT /admin/practice-settings` with the changed fields. */
export const savePracticeSettingsActor = (api: ApiClient) =>
  saveRecordActor({
    update: (_id, body: components['schemas']['PracticeSettingsUpdate'], signal) =>
      api.PUT('/admin/practice-settings', { body, signal }),
  });
