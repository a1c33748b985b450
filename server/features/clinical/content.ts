import type { components } from '../../../shared/contract/product';
import { badRequest } from '../../http/problem';

type Schemas = components['schemas'];
export type SummaryContent = Schemas['SummaryContent'];
export type PatientCardContent = Schemas['PatientCardContent'];
export type TaskBlocker = Schemas['TaskBlocker'];
type BlockerCode = TaskBlocker['code'];

const BLOCKER_MESSAGES: Record<BlockerCode, string> = {
  consent_missing: 'Die Einwilligung in die Verarbeitung von Gesundheitsdaten fehlt.',
  reason_missing: 'Der Anlass der Begleitung fehlt.',
  sections_incomplete: 'Nicht alle Abschnitte der Vorlage sind ausgefüllt.',
  risk_without_next_steps:
    'Ein Risiko ist markiert, aber es sind keine nächsten Schritte festgehalten.',
};
export const blockersOf = (codes: readonly string[]): TaskBlocker[] =>
  codes.map((code) => ({
    code: code as BlockerCode,
    message: BLOCKER_MESSAGES[code as BlockerCode],
  }));

const SECTIONS = {
  SOAP: ['subjective', 'objective', 'assessment', 'plan'],
  DAP: ['data', 'assessment', 'plan'],
} as const;
const blank = (text: string | undefined) => !text || text.trim() === '';

/** 400 for sections that are not part of the chosen template. */
export function checkSummaryContent(content: SummaryContent) {
  const allowed: readonly string[] = SECTIONS[content.format];
  for (const name of Object.keys(content.sections ?? {})) {
    if (!allowed.includes(name)) {
      throw badRequest(
        `content.sections.${name}`,
        'not_in_format',
        `${name} is not a section of ${content.format}`,
      );
    }
  }
}

export function summaryBlockers(content: SummaryContent): BlockerCode[] {
  const codes: BlockerCode[] = [];
  const sections = (content.sections ?? {}) as Record<string, string | undefined>;
  if (SECTIONS[content.format].some((name) => blank(sections[name])))
    codes.push('sections_incomplete');
  if (content.riskFlag && blank(content.nextSteps)) codes.push('risk_without_next_steps');
  return codes;
}

export function patientCardBlockers(content: PatientCardContent): BlockerCode[] {
  const codes: BlockerCode[] = [];
  if (!content.consents?.processing) codes.push('consent_missing');
  if (blank(content.reason)) codes.push('reason_missing');
  return codes;
}
