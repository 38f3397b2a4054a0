// Previous / page number / Next under a paged table. Knows nothing about routing: the caller
// decides what changing the page means (usually a `page` search param).
import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';

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
      <PageStepButton
        label="Previous"
        icon={<IconChevronLeft size={14} />}
        disabled={!hasPreviousPage}
        onClick={() => onChangePage(page - 1)}
      />
      <Text size="sm" aria-live="polite">
        Page {page}
      </Text>
      <PageStepButton
        label="Next"
        icon={<IconChevronRight size={14} />}
        iconAfter
        disabled={!hasNextPage}
        onClick={() => onChangePage(page + 1)}
      />
    </Group>
  );
}

/** Previous or Next: the chevron points the way, before the label or (`iconAfter`) after it. */
function PageStepButton({
  label,
  icon,
  iconAfter = false,
  disabled,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  iconAfter?: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      variant="default"
      size="xs"
      {...(iconAfter ? { rightSection: icon } : { leftSection: icon })}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}
