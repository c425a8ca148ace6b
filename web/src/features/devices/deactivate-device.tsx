import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { PermittedButton } from '../../components/access/permitted-button.tsx';
import { notifySaved } from '../../components/forms/form-errors.tsx';
import { ApiError } from '../../lib/api-error.ts';
import { useDeactivateDevice } from './api/deactivate-device.ts';

/** "Deactivate" with a confirmation: the device stops until it authenticates again. Shown only for an active device. */
export function DeactivateDevice({ deviceReference }: { deviceReference: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  const deactivate = useDeactivateDevice();
  const lines = deactivate.error instanceof ApiError ? deactivate.error.lines : deactivate.error ? [deactivate.error.message] : [];
  return (
    <>
      <PermittedButton action="devices:Deactivate" color="red" variant="light" onClick={open}>
        Deactivate
      </PermittedButton>
      <Modal opened={opened} onClose={close} title="Deactivate this device?">
        <Stack>
          <Text size="sm">
            Device {deviceReference} will stop recording and uploading, and no commands can be sent to it. It becomes active again when it
            next authenticates.
          </Text>
          {lines.length > 0 && (
            <Alert color="red" title="The device was not deactivated" role="alert">
              {lines.map((line) => (
                <div key={line}>{line}</div>
              ))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={deactivate.isPending}
              onClick={() =>
                deactivate.mutate(
                  { params: { device_reference: deviceReference } },
                  {
                    onSuccess: () => {
                      close();
                      notifySaved(`Device ${deviceReference} deactivated.`);
                    },
                  },
                )
              }
            >
              Deactivate device
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
