// An outcome's colour: one swatch per colour of the rule palette, chosen like a radio button.
import { RULE_COLORS, type RuleColor } from '@app/domain/rules';
import { CheckIcon, ColorSwatch, Group, Input } from '@mantine/core';

export function ColorSwatches({
  label,
  value,
  error,
  onChange,
}: {
  /** Names the group for assistive tech, e.g. "Rule 1 colour". */
  label: string;
  value: string;
  error?: string;
  onChange: (color: RuleColor) => void;
}) {
  return (
    <Input.Wrapper label="Colour" error={error}>
      <Group gap={6} role="radiogroup" aria-label={label} mt={4}>
        {RULE_COLORS.map((c) => (
          <ColorSwatch
            key={c}
            component="button"
            type="button"
            role="radio"
            aria-checked={value === c}
            aria-label={c}
            title={c}
            color={`var(--mantine-color-${c}-filled)`}
            size={26}
            onClick={() => onChange(c)}
            style={{ color: '#fff', cursor: 'pointer' }}
          >
            {value === c && <CheckIcon width={12} />}
          </ColorSwatch>
        ))}
      </Group>
    </Input.Wrapper>
  );
}
