import type { ReactNode } from 'react';
import { Box, Paper, Stack, Typography } from '@mui/material';

// A centred notice with an action, for result and restriction pages.
export const MessagePage = ({
  icon,
  title,
  text,
  action,
}: {
  icon?: ReactNode;
  title: string;
  text: string;
  action?: ReactNode;
}) => (
  <Box sx={{ display: 'grid', placeItems: 'center', py: { xs: 4, md: 8 } }}>
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, maxWidth: 560, textAlign: 'center' }}>
      <Stack
        spacing={2}
        sx={{
          alignItems: 'center',
        }}
      >
        {icon}
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {text}
        </Typography>
        {action}
      </Stack>
    </Paper>
  </Box>
);
