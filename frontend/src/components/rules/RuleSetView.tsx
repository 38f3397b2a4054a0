// A rule set someone else owns, read only: what the team default decides, for the members who may
// judge with it but not change it. Each rule reads as its outcome and its conditions ("Otherwise"
// for the last rule without any); "Save as My Copy" opens the editor on a copy of their own.
import { Badge, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCopy, IconEye } from '@tabler/icons-react';
import type { RuleSetPublic } from '../../client/types.gen';
import { ruleWhen } from './rule-sets';
import { FIRST_MATCH_HINT, RuleSetEditor } from './RuleSetEditor';

export function RuleSetView({ ruleSet }: { ruleSet: RuleSetPublic }) {
  const [opened, view] = useDisclosure(false);
  const [copying, copy] = useDisclosure(false);
  return (
    <>
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconEye size={14} />}
        onClick={view.open}
        aria-label={`View rules of ${ruleSet.name}`}
      >
        View
      </Button>
      <Modal opened={opened} onClose={view.close} title={ruleSet.name} size="lg" centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Version {ruleSet.version}, by {ruleSet.owner_email}. {FIRST_MATCH_HINT}
          </Text>
          <List type="ordered" spacing="xs" aria-label="Rules">
            {ruleSet.rules.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rules have no id; the order is the rule's place
              <List.Item key={i}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm">{ruleWhen(r)}</Text>
                  <Text size="sm" c="dimmed" aria-hidden>
                    →
                  </Text>
                  {/* The dot variant: the rule's colour with a label of AA contrast (as the decision badges). */}
                  <Badge variant="dot" tt="none" color={r.color}>
                    {r.outcome}
                  </Badge>
                </Group>
              </List.Item>
            ))}
          </List>
          <Group justify="flex-end">
            <Button variant="default" onClick={view.close}>
              Close
            </Button>
            <Button
              leftSection={<IconCopy size={16} />}
              onClick={() => {
                view.close();
                copy.open();
              }}
            >
              Save as My Copy
            </Button>
          </Group>
        </Stack>
      </Modal>
      <RuleSetEditor ruleSet={ruleSet} asCopy opened={copying} onClose={copy.close} />
    </>
  );
}
