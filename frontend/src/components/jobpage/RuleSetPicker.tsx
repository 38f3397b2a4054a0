// The rule sets a user may judge a job with (their own and the team default), as a select.
// Kept apart so the rule set API's own list can take its place without touching the card.
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { listJudgeRuleSetsOptions } from '../../client/@tanstack/react-query.gen';

export function RuleSetPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const sets = useQuery({
    ...listJudgeRuleSetsOptions(),
  });
  const data = (sets.data?.data ?? []).map((s) => ({
    value: String(s.id),
    label: `${s.name} (v${s.version}${s.is_team_default ? ', team default' : ''})`,
  }));
  return (
    <Select
      label="Rule set"
      placeholder={sets.isPending ? 'Loading…' : data.length ? 'Choose a rule set' : 'No rule set yet'}
      data={data}
      value={value}
      onChange={onChange}
      disabled={data.length === 0}
      allowDeselect={false}
      w={280}
    />
  );
}
