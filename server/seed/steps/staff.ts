import type { Faker } from '@faker-js/faker';
import { COACH_PLANS, DEMO_DOMAIN, STAFF } from '../data';
import type { DemoData } from '../types';
import { iso } from './clock';

/**
 * The staff accounts (one per role) and the five coaches with their accounts, set up on
 * `setupDay` a minute apart. Answers the coaches' ids in plan order.
 */
export function staffAndCoaches(f: Faker, setupDay: number, out: DemoData): string[] {
  for (const [i, staff] of STAFF.entries()) {
    const email = `${staff.key}@${DEMO_DOMAIN}`;
    const at = iso(setupDay + i * 60_000);
    out.users.push({
      id: f.string.uuid(),
      email,
      role: staff.role,
      active: true,
      activatedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    out.accounts.push({ role: staff.role, email, name: staff.label });
  }

  const coachIds: string[] = [];
  for (const [i, plan] of COACH_PLANS.entries()) {
    const n = i + 1;
    const email = `coach${n}@${DEMO_DOMAIN}`;
    const firstName = f.person.firstName(plan.sex);
    const lastName = f.person.lastName();
    const at = iso(setupDay + (10 + i) * 60_000);
    const id = f.string.uuid();
    coachIds.push(id);
    out.coaches.push({
      id,
      firstName,
      lastName,
      email,
      telephone: `+49 30 ${f.string.numeric({ length: 7, allowLeadingZeros: false })}`,
      title: plan.title,
      takesInitialAppointments: plan.takesInitialAppointments,
      active: true,
      createdAt: at,
      updatedAt: at,
    });
    out.users.push({
      id: f.string.uuid(),
      email,
      role: 'COACH',
      active: true,
      coachId: id,
      activatedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    const name = [plan.title, firstName, lastName].filter(Boolean).join(' ');
    out.accounts.push({ role: 'COACH', email, name: `Coach ${n}: ${name}` });
  }
  return coachIds;
}
