// @vitest-environment node
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  coachLimit,
  mayReadContent,
  reachesCoach,
  reachesRecord,
  reachOf,
  scopeFilter,
  type ScopedTable,
} from '../../server/access/policy';
import { grantsOf, OPERATION_PERMISSIONS, permissionsOf } from '../../server/access/permissions';
import { readContract, METHODS } from '../../server/http/contract';
import type { Principal } from '../../server/http/auth';
import { ROLES, SESSION_PERMISSIONS } from '../../shared/contract/enums';

const OWN = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

type Role = Principal['role'];
const principal = (role: Role, coachId: string | null = null) =>
  ({ subject: 's', role, active: true, user: { coachId } }) as unknown as Principal;

// Every staff and client caller the policy tells apart: a coach with and without a coach record.
const CALLERS = {
  NONE: principal('NONE'),
  COACH: principal('COACH', OWN),
  'COACH without record': principal('COACH'),
  ADMIN: principal('ADMIN'),
  ONBOARDING_MANAGER: principal('ONBOARDING_MANAGER'),
  SUPERADMIN: principal('SUPERADMIN'),
};

describe('the session permissions, role by role', () => {
  it('grants each role exactly these', () => {
    const table = Object.fromEntries(ROLES.map((role) => [role, permissionsOf(role)]));
    expect(table).toEqual({
      NONE: ['openClientPages'],
      COACH: ['readClinical', 'holdAppointments', 'openStaffPages'],
      ADMIN: [
        'readClinical',
        'completeReview',
        'pickCoach',
        'manageBilling',
        'eraseClients',
        'sendSignInLinks',
        'readAccessLog',
        'exportClinical',
        'openStaffPages',
      ],
      ONBOARDING_MANAGER: ['pickCoach', 'sendSignInLinks', 'openStaffPages'],
      SUPERADMIN: [
        'readClinical',
        'completeReview',
        'pickCoach',
        'manageBilling',
        'eraseClients',
        'sendSignInLinks',
        'readAccessLog',
        'exportClinical',
        'openStaffPages',
      ],
    });
  });

  it('names every permission of the contract once and gives each role one area', () => {
    expect([...grantsOf().keys()]).toEqual([...SESSION_PERMISSIONS]);
    for (const role of ROLES) {
      const areas = permissionsOf(role).filter(
        (p) => p === 'openStaffPages' || p === 'openClientPages',
      );
      expect(areas, role).toHaveLength(1);
    }
  });

  it('follows an operation’s x-roles when it stands for that operation', () => {
    const doc = readContract();
    const rolesOf = new Map<string, string[]>();
    for (const item of Object.values(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method] as { operationId?: string; 'x-roles'?: string[] } | undefined;
        if (op?.operationId) rolesOf.set(op.operationId, op['x-roles'] ?? []);
      }
    }
    for (const [permission, operation] of Object.entries(OPERATION_PERMISSIONS)) {
      const expected = ROLES.filter(
        (r) => r === 'SUPERADMIN' || rolesOf.get(operation)!.includes(r),
      );
      expect(grantsOf().get(permission as keyof typeof OPERATION_PERMISSIONS), permission).toEqual(
        expected,
      );
    }
    // A contract that lets coaches erase clients hands coaches the permission, with no second list.
    const widened = structuredClone(doc);
    for (const item of Object.values(widened.paths)) {
      const op = item.delete as { operationId?: string; 'x-roles'?: string[] } | undefined;
      if (op?.operationId === 'deleteClient') op['x-roles'] = ['ADMIN', 'COACH'];
    }
    expect(grantsOf(widened).get('eraseClients')).toContain('COACH');
  });
});

const dialect = new PgDialect();
function rendered(filter: SQL | undefined) {
  if (filter === undefined) return 'every row';
  const { sql, params } = dialect.sqlToQuery(filter);
  return { sql, params };
}

describe('the scope filters, caller by caller', () => {
  const TABLES: ScopedTable[] = [
    'clients',
    'appointments',
    'availability',
    'billableItems',
    'summaries',
    'patientCards',
  ];

  it('filters nothing for staff who work for every coach, everything for a coach without a record', () => {
    for (const table of TABLES) {
      for (const role of ['ADMIN', 'ONBOARDING_MANAGER', 'SUPERADMIN'] as const) {
        expect(rendered(scopeFilter(CALLERS[role], table)), `${role} ${table}`).toBe('every row');
      }
      expect(rendered(scopeFilter(CALLERS['COACH without record'], table))).toEqual({
        sql: 'false',
        params: [],
      });
    }
  });

  it('limits a coach to their own records and those of the clients they coach', () => {
    const coach = CALLERS.COACH;
    expect(rendered(scopeFilter(coach, 'clients'))).toEqual({
      sql: '"clients"."coached_by_id" = $1',
      params: [OWN],
    });
    expect(rendered(scopeFilter(coach, 'appointments'))).toEqual({
      sql: '"appointments"."coach_id" = $1',
      params: [OWN],
    });
    expect(rendered(scopeFilter(coach, 'availability'))).toEqual({
      sql: '"availabilities"."coach_id" = $1',
      params: [OWN],
    });
    for (const [table, name] of [
      ['billableItems', 'billable_items'],
      ['summaries', 'appointment_summaries'],
      ['patientCards', 'patient_cards'],
    ] as const) {
      const { sql, params } = rendered(scopeFilter(coach, table)) as {
        sql: string;
        params: unknown[];
      };
      expect(sql, table).toBe(
        `("${name}"."coach_id" = $1 or "${name}"."client_id" in (SELECT "clients"."id" FROM "clients" WHERE "clients"."coached_by_id" = $2))`,
      );
      expect(params).toEqual([OWN, OWN]);
    }
  });
});

describe('the checks on a loaded record, caller by caller', () => {
  const ownAppointment = { coachId: OWN, clientCoachId: OTHER };
  const ownClientsRecord = { coachId: OTHER, clientCoachId: OWN };
  const foreign = { coachId: OTHER, clientCoachId: OTHER };

  it('answers who reaches what', () => {
    const table = Object.fromEntries(
      Object.entries(CALLERS).map(([name, p]) => [
        name,
        {
          reach: reachOf(p).kind,
          ownCoach: reachesCoach(p, OWN),
          otherCoach: reachesCoach(p, OTHER),
          ownAppointment: reachesRecord(p, ownAppointment),
          ownClientsRecord: reachesRecord(p, ownClientsRecord),
          foreign: reachesRecord(p, foreign),
          readsForeignContent: mayReadContent(p, foreign),
          readsOwnContent: mayReadContent(p, ownClientsRecord),
          limitUnasked: coachLimit(p, undefined),
          limitAskingOther: coachLimit(p, OTHER),
        },
      ]),
    );
    const everyone = {
      reach: 'all',
      ownCoach: true,
      otherCoach: true,
      ownAppointment: true,
      ownClientsRecord: true,
      foreign: true,
      limitUnasked: undefined,
      limitAskingOther: OTHER,
    };
    expect(table).toEqual({
      // A client never passes a staff operation's x-roles; the content check still refuses.
      NONE: { ...everyone, readsForeignContent: false, readsOwnContent: false },
      COACH: {
        reach: 'coach',
        ownCoach: true,
        otherCoach: false,
        ownAppointment: true,
        ownClientsRecord: true,
        foreign: false,
        readsForeignContent: false,
        readsOwnContent: true,
        limitUnasked: OWN,
        limitAskingOther: null,
      },
      'COACH without record': {
        reach: 'none',
        ownCoach: false,
        otherCoach: false,
        ownAppointment: false,
        ownClientsRecord: false,
        foreign: false,
        readsForeignContent: false,
        readsOwnContent: false,
        limitUnasked: null,
        limitAskingOther: null,
      },
      ADMIN: { ...everyone, readsForeignContent: true, readsOwnContent: true },
      ONBOARDING_MANAGER: { ...everyone, readsForeignContent: false, readsOwnContent: false },
      SUPERADMIN: { ...everyone, readsForeignContent: true, readsOwnContent: true },
    });
  });
});
