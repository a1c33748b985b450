import { defineHandlers } from '../../http/handler';
import { changedFields, recordEvent } from '../events/index';
import { loadPractice, normalizeChange, saveSettings } from './settings';
import { inTransaction } from '../../db/transaction';

/**
 * GET /legal (public): what the imprint and privacy pages fill in; no tax number, no IBAN.
 * GET/PUT /admin/practice-settings: SUPERADMIN (the contract's x-roles).
 */
export const practiceHandlers = defineHandlers({
  async getLegalInfo({ deps, reply }) {
    const p = await loadPractice(deps.db, deps.config);
    reply.header('cache-control', 'no-cache');
    return {
      name: p.name,
      street: p.street,
      postalCode: p.postalCode,
      city: p.city,
      email: p.email,
      phone: p.phone,
      managingPerson: p.managingPerson,
      registerCourt: p.registerCourt,
      registerNumber: p.registerNumber,
      vatId: p.vatId,
      dpoName: p.dpoName,
      dpoEmail: p.dpoEmail,
      supervisoryAuthority: p.supervisoryAuthority,
      updatedAt: p.updatedAt,
    };
  },

  getPracticeSettings: ({ deps }) => loadPractice(deps.db, deps.config),

  updatePracticeSettings: ({ body, principal, deps }) =>
    inTransaction(deps.db, async (tx) => {
      const before = await loadPractice(tx, deps.config);
      const change = normalizeChange(body, before);
      const { updatedAt: _updatedAt, ...current } = before;
      const after = await saveSettings(tx, { ...current, ...change }, principal.user?.id ?? null);
      // Field names and values of the practice (no personal data beyond its public contacts).
      await recordEvent(tx, {
        type: 'practice_settings.updated',
        entityType: 'practice_settings',
        actor: principal,
        changes: changedFields(current, change),
      });
      return after;
    }),
});
