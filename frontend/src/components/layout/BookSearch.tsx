// The header's search box: any form of an ISBN the upload accepts (ISBN-10, hyphens, a scanner's EAN
// with add-on) opens its book's page on Enter; anything else says why, beside the box, and stays.
import { readOneIsbn } from '@app/domain/book';
import { Popover, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { BOOK_TEXT } from '../../lib/messages';

export function BookSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const go = () => {
    const read = readOneIsbn(text);
    if ('reason' in read) {
      setError(read.reason);
      return;
    }
    setError(null);
    setText('');
    void navigate({ to: '/books/$isbn', params: { isbn: read.isbn } });
  };
  return (
    <Popover opened={error !== null} position="bottom-start" withArrow shadow="md" width="target" onChange={(o) => !o && setError(null)}>
      <Popover.Target>
        <TextInput
          aria-label={BOOK_TEXT.searchLabel}
          placeholder={BOOK_TEXT.searchLabel}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') go();
            if (e.key === 'Escape') setError(null);
          }}
          aria-invalid={error !== null}
          aria-describedby={error !== null ? errorId : undefined}
          w={{ base: '100%', sm: 280 }}
          size="sm"
        />
      </Popover.Target>
      <Popover.Dropdown>
        <Text id={errorId} size="sm" c="red.8" role="alert">
          {error}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}
