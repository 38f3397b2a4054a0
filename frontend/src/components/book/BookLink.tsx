// An ISBN that opens its book's page (/books/<isbn>): every ISBN cell of the lookup and comparison tables.
import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export function BookLink({ isbn }: { isbn: string }) {
  return (
    // A row click opens the row's offers; following the link must not.
    <Anchor
      renderRoot={(props) => <Link {...props} to="/books/$isbn" params={{ isbn }} />}
      size="sm"
      onClick={(e) => e.stopPropagation()}
      style={{ whiteSpace: 'nowrap' }}
    >
      {isbn}
    </Anchor>
  );
}
