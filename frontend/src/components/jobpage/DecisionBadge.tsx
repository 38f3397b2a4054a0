// A decision as a badge in its outcome's colour (from the rule set version the job was judged with).
import { Badge } from '@mantine/core';
import type { DecisionCount } from '../../client/types.gen';

/** Outcome → colour for the job's version; an outcome it does not name is gray. */
export type DecisionColors = ReadonlyMap<string, DecisionCount['color']>;

export const decisionColors = (outcomes: readonly DecisionCount[] | undefined): DecisionColors =>
  new Map((outcomes ?? []).map((o) => [o.outcome, o.color]));

export function DecisionBadge({ outcome, colors }: { outcome: string; colors: DecisionColors }) {
  return (
    // The dot variant keeps the rule's colour and a label with AA contrast (as the status badges do).
    <Badge variant="dot" color={colors.get(outcome) ?? 'gray'} tt="none" data-decision={outcome}>
      {outcome}
    </Badge>
  );
}
