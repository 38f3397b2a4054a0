// Add or edit a buy rule set: a name and an ordered list of rules, each an outcome with a colour and
// conditions over the comparison's fields (the filter builder's rows). The domain's validation runs
// as it is typed (shown once an input is left, or on Save); a 422 from the API shows beside the input
// its loc names. The last rule may have no conditions: the "Otherwise" rule, which catches every row
// the rules above it did not (added with its own button; new rules go above it). Saving an existing set makes a new version; the team default, opened by anyone but
// a superuser (`asCopy`), is saved as a new set of their own instead (the API refuses to change it).
import { isOtherwise, OTHERWISE, RULE_FIELDS } from '@app/domain/rules';
import { ActionIcon, Alert, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { createRuleSet, updateRuleSet } from '../../client/sdk.gen';
import type { RuleSetPublic } from '../../client/types.gen';
import { TEAM_DEFAULT_LOCKED, TOAST } from '../../lib/messages';
import { showApiError, showSuccess } from '../../lib/notify';
import { useDraftErrors } from '../../hooks/useDraftErrors';
import { draftErrors, emptyRuleSet, moved, newRule, type Rule, type RuleSetInput, withOtherwise } from './rule-sets';
import { FormModal } from '../common/FormModal';
import { ColorSwatches } from './ColorSwatches';
import { readRuleSetsQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';
import { ConditionRows } from './ConditionRows';

export const FIRST_MATCH_HINT = 'First matching rule wins; no match reads No rule.';
export const OTHERWISE_HINT = 'Every row no rule above caught gets this outcome.';

const toDraft = (set: RuleSetPublic): RuleSetInput => ({
  name: set.name,
  rules: set.rules.map((r) => ({ ...r, conditions: r.conditions.map((c) => ({ ...c })) })),
});

export function RuleSetEditor({
  ruleSet,
  asCopy = false,
  opened,
  onClose,
}: {
  ruleSet?: RuleSetPublic;
  /** Save as a new set (the user may read `ruleSet` but not change it: the team default). */
  asCopy?: boolean;
  opened: boolean;
  onClose: () => void;
}) {
  const updating = ruleSet && !asCopy ? ruleSet : undefined;
  const queryClient = useQueryClient();
  const form = useDraftErrors<RuleSetInput>(emptyRuleSet, draftErrors);
  const { draft, change, error, reset } = form;

  // Each opening starts from the set as saved (or an empty one).
  useEffect(() => {
    if (!opened) return;
    reset(ruleSet ? (asCopy ? { ...toDraft(ruleSet), name: `${ruleSet.name} (my copy)` } : toDraft(ruleSet)) : emptyRuleSet());
  }, [opened, ruleSet, asCopy, reset]);

  const setRules = (rules: Rule[]) => change({ ...draft, rules });
  const setRule = (i: number, rule: Rule) => setRules(draft.rules.map((r, k) => (k === i ? rule : r)));
  const last = draft.rules[draft.rules.length - 1];
  const endsWithOtherwise = !!last && isOtherwise(last);
  /** A new rule goes above the Otherwise rule, which stays last. */
  const addRule = () => {
    const rule = newRule(draft.rules);
    setRules(endsWithOtherwise && last ? [...draft.rules.slice(0, -1), rule, last] : [...draft.rules, rule]);
  };

  const save = useMutation({
    mutationFn: async (body: RuleSetInput) =>
      updating ? (await updateRuleSet({ path: { id: updating.id }, body })).data : (await createRuleSet({ body })).data,
    meta: { toastOnError: false },
    onSuccess: (saved) => {
      showSuccess(updating ? TOAST.ruleSetUpdated(saved.version) : asCopy ? TOAST.ruleSetCopied(saved.name) : TOAST.ruleSetCreated);
      onClose();
    },
    // A 422 naming inputs shows beside them (a toast would only cover the form); anything else is a toast.
    onError: (err) => {
      if (!form.failed(err)) showApiError(err);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: everyCall(readRuleSetsQueryKey) }),
  });

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={updating ? 'Edit Rule Set' : asCopy ? 'Save as My Copy' : 'Add Rule Set'}
      size="xl"
      loading={save.isPending}
      onSubmit={(e) => {
        e.preventDefault();
        if (form.submit()) save.mutate(draft);
      }}
    >
      {/* Inputs are named by their error path; leaving one shows its problem from then on. */}
      <Stack gap="sm" onBlur={form.onBlur}>
        {asCopy && (
          <Alert color="blue" variant="light">
            {TEAM_DEFAULT_LOCKED}
          </Alert>
        )}
        <TextInput
          label="Name"
          name="name"
          withAsterisk
          data-autofocus
          value={draft.name}
          error={error('name')}
          onChange={(e) => change({ ...draft, name: e.currentTarget.value })}
        />
        <Text size="sm" c="dimmed">
          {FIRST_MATCH_HINT}
        </Text>
        {draft.rules.map((rule, i) => (
          <RuleCard
            // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id before they are saved; moving swaps their contents
            key={i}
            i={i}
            rule={rule}
            count={draft.rules.length}
            error={error}
            onChange={(r) => setRule(i, r)}
            onMove={(by) => setRules(moved(draft.rules, i, by))}
            onRemove={() => setRules(draft.rules.filter((_, k) => k !== i))}
          />
        ))}
        {error('rules', true) && (
          <Text size="sm" c="red" role="alert">
            {error('rules', true)}
          </Text>
        )}
        <Group>
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={addRule}>
            Add rule
          </Button>
          {!endsWithOtherwise && (
            <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setRules(withOtherwise(draft.rules))}>
              Add Otherwise rule
            </Button>
          )}
        </Group>
      </Stack>
    </FormModal>
  );
}

interface RuleCardProps {
  i: number;
  rule: Rule;
  count: number;
  error: (path: string, always?: boolean) => string | undefined;
  onChange: (rule: Rule) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

function RuleCard({ i, rule, count, error, onChange, onMove, onRemove }: RuleCardProps) {
  const label = `Rule ${i + 1}`;
  const path = `rules.${i}`;
  const setConditions = (conditions: Rule['conditions']) => onChange({ ...rule, conditions });
  const otherwise = isOtherwise(rule);
  return (
    <Paper withBorder p="sm" component="section" aria-label={label}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm">
            {otherwise ? `${label}: ${OTHERWISE}` : label}
          </Text>
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="subtle" color="gray" aria-label={`Move rule ${i + 1} up`} disabled={i === 0} onClick={() => onMove(-1)}>
              <IconArrowUp size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Move rule ${i + 1} down`}
              disabled={i === count - 1}
              onClick={() => onMove(1)}
            >
              <IconArrowDown size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove rule ${i + 1}`} onClick={onRemove}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Group>
        <Group align="flex-start" gap="md">
          <TextInput
            label="Outcome"
            aria-label={`${label} outcome`}
            name={`${path}.outcome`}
            placeholder="Buy, List on AbeBooks, Reject…"
            withAsterisk
            value={rule.outcome}
            error={error(`${path}.outcome`)}
            onChange={(e) => onChange({ ...rule, outcome: e.currentTarget.value })}
            w={{ base: '100%', sm: 260 }}
          />
          <ColorSwatches
            label={`${label} colour`}
            value={rule.color}
            error={error(`${path}.color`, true)}
            onChange={(color) => onChange({ ...rule, color })}
          />
        </Group>
        <Text size="sm" fw="var(--mantine-font-weight-medium)">
          {otherwise ? OTHERWISE_HINT : 'When all of these hold'}
        </Text>
        <ConditionRows conditions={rule.conditions} fields={RULE_FIELDS} onChange={setConditions} label={label} path={path} error={error} />
      </Stack>
    </Paper>
  );
}
