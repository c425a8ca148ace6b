import { Button, Group, NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { LICENCE_LIMIT_MAX, LICENCE_LIMIT_MIN } from '#shared/constants/limits.ts';
import { SERVICES, type Service } from '#shared/constants/devices.ts';
import type { Licences } from '#shared/contract/entities/licences.ts';
import { formErrorsFor, FormErrorSummary, notifySaved } from '../../components/forms/form-errors.tsx';
import { formatNumber } from '../../lib/format.ts';
import { bodyFieldPaths } from '../../lib/form-errors.ts';
import { checkLimits, type LimitValues } from './licence-form-model.ts';
import { inServiceOrder, serviceLabel } from './licence-labels.ts';
import { useUpdateClientLicences } from './api/update-client-licences.ts';

/** Staff set a client's eight licence limits at once (whole numbers 0 to 100000); the use so far shows beside each. */
export function LicenceForm({ licences, onDone }: { licences: Licences; onDone: () => void }) {
  const usage = inServiceOrder(licences.data);
  const [values, setValues] = useState<LimitValues>(() => Object.fromEntries(usage.map((entry) => [entry.service, entry.limit])) as LimitValues);
  const [localLines, setLocalLines] = useState<string[]>([]);
  const save = useUpdateClientLicences();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkLimits(values);
    if (!checked.ok) {
      setLocalLines(checked.lines);
      return;
    }
    setLocalLines([]);
    save.mutate(
      { client: licences.client, body: checked.body },
      {
        onSuccess: () => {
          notifySaved(`Licence limits of ${licences.client} saved.`);
          onDone();
        },
      },
    );
  };

  const errors = formErrorsFor({ localLines, error: save.error, paths: bodyFieldPaths<Service>(SERVICES) });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FormErrorSummary lines={errors.general} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {usage.map((entry) => (
            <NumberInput
              key={entry.service}
              label={serviceLabel(entry.service)}
              description={`${formatNumber(entry.used)} in use`}
              min={LICENCE_LIMIT_MIN}
              max={LICENCE_LIMIT_MAX}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              thousandSeparator=","
              value={values[entry.service]}
              onChange={(value) => setValues((previous) => ({ ...previous, [entry.service]: value }))}
              error={errors.field[entry.service]}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save limits
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
