// A job's name (or any text) that opens its page, /jobs/<id>.
import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

export function JobLink({ id, children }: { id: number; children: ReactNode }) {
  return (
    <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/jobs/$id" params={{ id: String(id) }} />}>
      {children}
    </Anchor>
  );
}
