// The rear camera, read continuously: each code it sees goes to onCode(text, format) (repeats
// included; the page decides what counts). Without a camera the page stays usable: the error says so.
import { Alert, Box, Button, Group, Loader, Text } from '@mantine/core';
import { IconCamera, IconCameraOff } from '@tabler/icons-react';
import { useRef } from 'react';
import { useCameraScanner } from './useCameraScanner';

/** `onStart`: called inside the Start camera tap (the page unlocks its sound there). */
export function CameraScanner({ onCode, onStart }: { onCode: (text: string, format: string) => void; onStart?: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const { state, start, stop } = useCameraScanner(video, onCode);
  const running = state.status === 'on' || state.status === 'starting';
  return (
    <Box>
      <Box
        pos="relative"
        bg="black"
        style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden', display: running ? 'block' : 'none' }}
      >
        {/* muted + playsInline: iOS plays a camera stream inline only so. */}
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera picture"
          data-reader={state.status === 'on' ? state.reader : undefined}
          style={{ display: 'block', width: '100%', maxHeight: '45vh', objectFit: 'cover' }}
        />
        {state.status === 'starting' && (
          <Group pos="absolute" inset={0} justify="center" gap="xs">
            <Loader color="white" size="sm" />
            <Text c="white" size="sm">
              Starting the camera…
            </Text>
          </Group>
        )}
      </Box>
      <Group mt={running ? 'sm' : 0}>
        {running ? (
          <Button size="lg" variant="default" leftSection={<IconCameraOff aria-hidden />} onClick={stop} fullWidth>
            Stop camera
          </Button>
        ) : (
          <Button
            size="lg"
            leftSection={<IconCamera aria-hidden />}
            onClick={() => {
              onStart?.();
              start();
            }}
            fullWidth
          >
            Start camera
          </Button>
        )}
      </Group>
      {state.status === 'error' && (
        <Alert mt="sm" color="red" title="Camera" role="alert">
          {state.message}
        </Alert>
      )}
    </Box>
  );
}
