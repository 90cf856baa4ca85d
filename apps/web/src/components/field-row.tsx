import type { ReactNode } from 'react';
import { Stack } from '@mui/material';

// Fields side by side where there is room, one under the other on a phone; tops aligned, so that a
// field's hint or error does not shift its neighbour.
export const FieldRow = ({ children }: { children: ReactNode }) => (
  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
    {children}
  </Stack>
);
