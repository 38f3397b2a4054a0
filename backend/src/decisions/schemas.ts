// Shapes of the judging API (decisions/routes.ts).
import { RULE_COLORS } from '@app/domain/rules';
import { z } from 'zod';

export const JudgeBody = z
  .object({ rule_set_id: z.number().int().positive().max(2_147_483_647).meta({ description: 'Judged with its current version' }) })
  .meta({ id: 'JudgeBody' });

export const DecisionCount = z
  .object({ outcome: z.string(), color: z.enum(RULE_COLORS), count: z.number().int() })
  .meta({ id: 'DecisionCount' });

export const JobDecisions = z
  .object({
    job_id: z.number().int(),
    rule_set: z
      .object({ id: z.number().int(), name: z.string(), version: z.number().int(), version_id: z.number().int() })
      .nullable()
      .meta({ description: 'The rule set version the job is (or is to be) judged with' }),
    judged_at: z.date().nullable(),
    stale: z.boolean().meta({ description: 'The job changed (e.g. new prices) after it was judged' }),
    outcomes: z.array(DecisionCount).meta({ description: 'Per outcome in rule order, "No rule" last; empty until judged' }),
  })
  .meta({ id: 'JobDecisions' });

export const JudgeRuleSet = z
  .object({
    id: z.number().int(),
    name: z.string(),
    is_team_default: z.boolean(),
    version: z.number().int(),
    version_id: z.number().int(),
  })
  .meta({ id: 'JudgeRuleSet' });

export const JudgeRuleSets = z.object({ data: z.array(JudgeRuleSet) }).meta({ id: 'JudgeRuleSets' });
