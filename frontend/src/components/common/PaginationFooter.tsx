// Previous / page number / Next under a paged table. Knows nothing about routing: the caller
// decides what changing the page means (usually a `page` search param).
import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';

export interface PaginationFooterProps {
  page: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  onChangePage: (page: number) => void;
  /** "1–10 of 5,432", shown before the buttons once known. */
  rangeText?: string;
}

export function PaginationFooter({ page, hasNextPage, hasPreviousPage, onChangePage, rangeText }: PaginationFooterProps) {
  return (
    <Group justify="flex-end" gap="sm" mt="md" component="nav" aria-label="Paging">
      {rangeText && (
        <Text size="sm" c="dimmed" data-testid="page-range">
          {rangeText}
        </Text>
      )}
      <Button
        variant="default"
        size="xs"
        leftSection={<IconChevronLeft size={14} />}
        disabled={!hasPreviousPage}
        onClick={() => onChangePage(page - 1)}
      >
        Previous
      </Button>
      <Text size="sm" aria-live="polite">
        Page {page}
      </Text>
      <Button
        variant="default"
        size="xs"
        rightSection={<IconChevronRight size={14} />}
        disabled={!hasNextPage}
        onClick={() => onChangePage(page + 1)}
      >
        Next
      </Button>
    </Group>
  );
}
