import { SegmentedControl, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useForcedColorScheme } from '../../lib/forced-color-scheme.ts';

const OPTIONS: { value: MantineColorScheme; label: string }[] = [
  { value: 'auto', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** The colour-mode preference (system, light, dark), kept in local storage by Mantine's manager. */
export function ColourModeControl() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const forced = useForcedColorScheme();
  return (
    <SegmentedControl
      size="xs"
      aria-label="Colour mode"
      value={colorScheme}
      onChange={(value) => setColorScheme(value as MantineColorScheme)}
      data={OPTIONS}
      // A page that forces its scheme shows it, but the preference itself stays the user's.
      disabled={forced !== undefined}
    />
  );
}
