// Unknown paths: "Oops!", "Page not found." and a link home (docs/requirements.md, Not found).
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" data-testid="not-found">
        <Title order={1} fz={64}>
          404
        </Title>
        <Title order={2}>Oops!</Title>
        <Text>Page not found.</Text>
        <Button component={Link} to="/" variant="outline">
          Go back
        </Button>
      </Stack>
    </Center>
  );
}
