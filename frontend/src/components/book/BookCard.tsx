// One book of a table as a card on a phone: its ISBN and title, then the row's own figures as
// "label value" lines; the whole card opens the book's page (/books/<isbn>).
import { Card, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import classes from './BookCard.module.css';

export interface BookCardLine {
  label: string;
  value: ReactNode;
}

export function BookCard({ isbn, title, badge, lines }: { isbn: string; title?: string; badge?: ReactNode; lines: BookCardLine[] }) {
  return (
    <Card
      withBorder
      padding="sm"
      renderRoot={(props) => <Link {...props} to="/books/$isbn" params={{ isbn }} />}
      className={classes.card}
      data-isbn={isbn}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Stack gap={0} miw={0}>
            <Text size="sm" fw={700} ff="monospace" data-testid="card-isbn">
              {isbn}
            </Text>
            {title && (
              <Text size="sm" lineClamp={2}>
                {title}
              </Text>
            )}
          </Stack>
          {badge}
        </Group>
        {lines.map((l) => (
          <Group key={l.label} justify="space-between" wrap="nowrap" gap="xs">
            <Text size="xs" c="dimmed">
              {l.label}
            </Text>
            <Text size="sm" ta="right" component="div" miw={0} style={{ overflowWrap: 'anywhere' }}>
              {l.value}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
