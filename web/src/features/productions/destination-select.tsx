import { Select } from '@mantine/core';
import { useCan } from '../../lib/use-can.ts';
import { useTransferDestinations } from './api/productions-api.ts';
import { DOWNLOAD_TARGET, transferTargetLabel } from './production-request.ts';

/**
 * Where a production goes: a download link, or one of the tenant's transfer configurations named as the tenant named
 * it (with its target and packaging). A role that may not list the configurations is offered the download link only.
 */
export function DestinationSelect({ value, onChange, error }: { value: string; onChange: (target: string) => void; error?: string | undefined }) {
  const canList = useCan('transferConfigs:List');
  const configs = useTransferDestinations(canList.allowed);
  const options = [
    { value: DOWNLOAD_TARGET, label: 'Download link' },
    ...configs.items.map((config) => ({ value: config.transfer_config_reference, label: `Transfer: ${transferTargetLabel(config)}` })),
  ];
  return <Select label="Destination" value={value} onChange={(target) => onChange(target ?? DOWNLOAD_TARGET)} data={options} allowDeselect={false} error={error} />;
}
