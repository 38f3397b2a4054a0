// The header's search box: any form of an ISBN the upload accepts (ISBN-10, hyphens, a scanner's EAN
// with add-on) opens its book's page on Enter; anything else says why, under the box, and stays.
import { readOneIsbn } from '@app/domain/book';
import { Box, Paper, Text, TextInput } from '@mantine/core';
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
    // The reason floats under the box, over the page: the header keeps its height.
    <Box pos="relative" w={{ base: '100%', sm: 280 }}>
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
        onBlur={() => setError(null)}
        error={error !== null}
        // The red border marks the error; the typed text keeps the text colour (red text fails AA contrast).
        styles={{ input: { color: 'var(--mantine-color-text)' } }}
        aria-describedby={error !== null ? errorId : undefined}
        size="sm"
      />
      {error !== null && (
        <Paper pos="absolute" top="100%" left={0} right={0} mt={4} p="xs" shadow="md" withBorder style={{ zIndex: 300 }}>
          <Text id={errorId} size="sm" c="red.8" role="alert">
            {error}
          </Text>
        </Paper>
      )}
    </Box>
  );
}
