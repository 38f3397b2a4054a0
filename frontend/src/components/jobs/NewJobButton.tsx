import { Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { CreateJobModal } from './CreateJobModal';

export function NewJobButton() {
  const [opened, modal] = useDisclosure(false);
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={modal.open}>
        New Job
      </Button>
      <CreateJobModal opened={opened} onClose={modal.close} />
    </>
  );
}
