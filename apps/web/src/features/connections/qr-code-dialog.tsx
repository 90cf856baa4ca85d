import { useState } from 'react';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { WhatsappSessionEvent } from '@atendi/shared';
import { QRCodeSVG } from 'qrcode.react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useCompanyEvent } from '../../api/socket';
import { toastError } from '../../api/toasts';
import { FormText } from '../../components/form-text';
import { useConnection, useConnections } from '../../api/queries/connections';
import { requestNewQr } from './connections.api';
import { CloseButton, DialogBody, DialogFrame, FormButtons } from '../../components/dialog-frame';

// SPEC §9.
const QR_CODE_SIZE = 256;

// The rule of whatsappSessionSchema (packages/shared), with a message that is an i18n key.
const pairingSchema = z.object({
  phoneNumber: z
    .string()
    .trim()
    .regex(/^\+?\d{8,15}$/, 'connections.qr.phoneInvalid'),
});
type PairingValues = z.infer<typeof pairingSchema>;

const PairingForm = ({
  connectionId,
  onCancel,
  onRequested,
}: {
  connectionId: number;
  onCancel: () => void;
  onRequested: () => void;
}) => {
  const { t } = useTranslation();
  const form = useForm<PairingValues>({
    resolver: zodResolver(pairingSchema),
    defaultValues: { phoneNumber: '' },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async ({ phoneNumber }: PairingValues) => {
    try {
      // The code arrives as a live session update.
      await requestNewQr(connectionId, phoneNumber);
      onRequested();
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Stack
      component="form"
      noValidate
      spacing={1.5}
      aria-label={t('connections.qr.pairingFormTitle')}
      onSubmit={handleSubmit(onSubmit)}
      sx={{ width: '100%' }}
    >
      <Typography
        variant="body2"
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('connections.qr.pairingFormText')}
      </Typography>
      <FormText
        form={form}
        name="phoneNumber"
        type="tel"
        label={t('connections.qr.phoneNumber')}
        placeholder="5215512345678"
        autoFocus
        hint={t('connections.qr.phoneNumberHint')}
      />
      <Stack
        direction="row"
        spacing={1}
        sx={{
          justifyContent: 'flex-end',
        }}
      >
        <FormButtons
          onCancel={onCancel}
          submitLabel={t('connections.qr.requestCode')}
          isSubmitting={isSubmitting}
        />
      </Stack>
    </Stack>
  );
};

const QrCodeBody = ({
  connectionId,
  onClose,
  onOpenPhone,
}: {
  connectionId: number;
  onClose: () => void;
  onOpenPhone?: (connectionId: number) => void;
}) => {
  const { t } = useTranslation();
  // SPEC §7: GET /whatsapp/{id} reads the code waiting now; live session updates replace it.
  const detail = useConnection(connectionId);
  const listed = useConnections().data?.find((row) => row.id === connectionId);
  const connection = detail.data ?? listed;
  const [isAskingPhone, setAskingPhone] = useState(false);

  // SPEC §4: an update without a code closes the dialog (connected, or gave up waiting). While the
  // session is still opening the code is on its way, so that update keeps the dialog.
  useCompanyEvent<WhatsappSessionEvent>('whatsappSession', (event) => {
    const session = event?.session;
    if (event?.action !== 'update' || session?.id !== connectionId) return;
    if (!session.qrcode && !session.pairingCode && session.status !== 'OPENING') onClose();
  });

  const backToQr = useMutation({ mutationFn: () => requestNewQr(connectionId) });

  const name = connection?.name ?? '';
  const qrcode = connection?.qrcode ?? '';
  const pairingCode = connection?.pairingCode ?? '';
  // The simulator is linked from its own virtual phone (the connection's "Teléfono" button), not
  // from a real one: its codes come with those instructions instead.
  const isSimulator = connection?.provider === 'simulator';

  let content;
  if (isAskingPhone) {
    content = (
      <PairingForm
        connectionId={connectionId}
        onCancel={() => setAskingPhone(false)}
        onRequested={() => setAskingPhone(false)}
      />
    );
  } else if (pairingCode) {
    content = (
      <>
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t(
            isSimulator
              ? 'connections.qr.simulatorPairingInstructions'
              : 'connections.qr.pairingInstructions',
          )}
        </Typography>
        <Typography
          data-testid="pairing-code"
          component="p"
          sx={{
            fontFamily: 'monospace',
            fontSize: { xs: '2rem', sm: '2.75rem' },
            fontWeight: 700,
            letterSpacing: '0.2em',
            py: 2,
          }}
        >
          {pairingCode}
        </Typography>
      </>
    );
  } else if (qrcode) {
    content = (
      <>
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t(isSimulator ? 'connections.qr.simulatorInstructions' : 'connections.qr.instructions')}
        </Typography>
        <Box sx={{ p: 2, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}>
          <QRCodeSVG value={qrcode} size={QR_CODE_SIZE} title={t('connections.qr.codeLabel')} />
        </Box>
      </>
    );
  } else {
    content = (
      <Stack
        role="status"
        spacing={2}
        sx={{
          alignItems: 'center',
          py: 6,
        }}
      >
        <CircularProgress />
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('connections.qr.waiting')}
        </Typography>
      </Stack>
    );
  }

  // The other way to link, left of "Cerrar".
  const otherWay = () => {
    if (isAskingPhone) return null;
    if (isSimulator)
      return onOpenPhone ? (
        <Button variant="contained" onClick={() => onOpenPhone(connectionId)}>
          {t('connections.qr.openSimulatorPhone')}
        </Button>
      ) : null;
    if (pairingCode)
      return (
        <Button onClick={() => backToQr.mutate()} disabled={backToQr.isPending}>
          {t('connections.qr.useQrInstead')}
        </Button>
      );
    return (
      <Button onClick={() => setAskingPhone(true)}>{t('connections.qr.usePairingCode')}</Button>
    );
  };

  return (
    <DialogBody
      title={t('connections.qr.title', { name })}
      footer={
        <>
          <Box sx={{ mr: 'auto' }}>{otherWay()}</Box>
          <CloseButton />
        </>
      }
    >
      <Stack
        spacing={2}
        sx={{
          alignItems: 'center',
          textAlign: 'center',
          minHeight: 300,
        }}
      >
        {content}
      </Stack>
    </DialogBody>
  );
};

// SPEC §2 QR code dialog: the code to scan (or a pairing code to type) for one connection.
// The content stays while the dialog fades out; a new sessionKey gives each opening a fresh body.
export const QrCodeDialog = ({
  open,
  connectionId,
  sessionKey,
  onClose,
  onOpenPhone,
}: {
  open: boolean;
  connectionId: number | null;
  sessionKey: number;
  onClose: () => void;
  // A simulator connection: opens its virtual phone, which scans the code.
  onOpenPhone?: (connectionId: number) => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
    {connectionId !== null && (
      <QrCodeBody connectionId={connectionId} onClose={onClose} onOpenPhone={onOpenPhone} />
    )}
  </DialogFrame>
);
