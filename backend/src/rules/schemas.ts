// The rule set API's shapes. What comes in is only held to its types here (and bounded); what it
// means — fields, operators, values, outcomes, colours, counts — is checked by the domain's
// validateRuleSet, the same check the editor runs, and refused as a 422 naming the part.
import { OPERATOR_LABELS, type FilterOperator } from '@app/domain/fields';
import { RULE_COLORS } from '@app/domain/rules';
import { z } from 'zod';
import { FilterSchema } from '../lib/filter-sql.ts';

export const RuleSetIdParam = z.object({
  id: z.coerce.number().int('Invalid rule set id').positive('Invalid rule set id').max(2_147_483_647, 'Invalid rule set id'),
});

export const VersionQuery = z.object({
  version: z.coerce.number().int('Invalid version').positive('Invalid version').max(2_147_483_647, 'Invalid version').optional(),
});

// Bounds well above the domain's limits, so an oversized list gets the domain's own message.
const RuleIn = z.object({ outcome: z.string().max(1000), color: z.string().max(100), conditions: z.array(FilterSchema).max(200) });
export const RuleSetIn = z.object({ name: z.string().max(2000), rules: z.array(RuleIn).max(500) }).meta({ id: 'RuleSetIn' });

// Every operator (the labels' keys are all of them).
const OPERATORS = Object.keys(OPERATOR_LABELS) as [FilterOperator, ...FilterOperator[]];
const RuleCondition = z.object({ field: z.string(), operator: z.enum(OPERATORS), value: z.string() }).meta({ id: 'RuleCondition' });
const RulePublic = z.object({ outcome: z.string(), color: z.enum(RULE_COLORS), conditions: z.array(RuleCondition) }).meta({ id: 'Rule' });

export const RuleSetPublic = z
  .object({
    id: z.number().int(),
    name: z.string(),
    owner_id: z.string(),
    owner_email: z.string(),
    is_team_default: z.boolean(),
    created_at: z.date(),
    updated_at: z.date(),
    /** The version shown: the current one unless another was asked for. */
    version: z.number().int(),
    version_id: z.number().int(),
    rules: z.array(RulePublic),
  })
  .meta({ id: 'RuleSetPublic' });
export const RuleSetsPublic = z.object({ data: z.array(RuleSetPublic), count: z.number().int() }).meta({ id: 'RuleSetsPublic' });

const RuleSetVersionPublic = z
  .object({ id: z.number().int(), version: z.number().int(), rules: z.array(RulePublic), created_at: z.date() })
  .meta({ id: 'RuleSetVersionPublic' });
export const RuleSetVersionsPublic = z
  .object({ data: z.array(RuleSetVersionPublic), count: z.number().int() })
  .meta({ id: 'RuleSetVersionsPublic' });
