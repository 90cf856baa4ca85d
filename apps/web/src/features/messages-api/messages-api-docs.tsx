import type { ReactNode } from 'react';
import {
  Box,
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { externalMessageStatuses, IDEMPOTENCY_KEY_TTL_HOURS } from '@atendi/shared';
import { CodeBlock } from './code-block';
import {
  exampleError,
  exampleResponse,
  idempotencyExample,
  mediaCurl,
  prettyJson,
  textCurl,
} from './curl-examples';
import { externalApiUrl, idempotencyHeaderName } from './messages-api.api';

// The answers the endpoint can refuse with, and the texts (messagesApi.docs.errorRows.*) explaining them.
const errorRows = [
  { status: 400, code: 'ERR_VALIDATION', key: 'validation' },
  { status: 400, code: 'ERR_INVALID_NUMBER', key: 'invalidNumber' },
  { status: 401, code: 'ERR_INVALID_API_TOKEN', key: 'invalidToken' },
  { status: 403, code: 'ERR_PLAN_FEATURE_DISABLED', key: 'planDisabled' },
  { status: 403, code: 'ERR_COMPANY_INACTIVE', key: 'companyInactive' },
  { status: 413, code: 'ERR_UPLOAD_TOO_LARGE', key: 'tooLarge' },
  { status: 415, code: 'ERR_UPLOAD_TYPE_NOT_ALLOWED', key: 'typeNotAllowed' },
  { status: 422, code: 'ERR_IDEMPOTENCY_KEY_REUSED', key: 'keyReused' },
  { status: 429, code: 'ERR_TOO_MANY_REQUESTS', key: 'tooManyRequests' },
] as const;

const DocsSection = ({ title, children }: { title: string; children: ReactNode }) => (
  <Stack component="section" spacing={1.5}>
    <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
      {title}
    </Typography>
    {children}
  </Stack>
);

const Code = ({ children }: { children: ReactNode }) => (
  <Box component="code" sx={{ fontFamily: 'monospace', fontSize: '0.9em' }}>
    {children}
  </Box>
);

export const MessagesApiDocs = () => {
  const { t } = useTranslation();
  const url = externalApiUrl();
  const token = t('messagesApi.docs.tokenPlaceholder');

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack spacing={3}>
        <Typography variant="h6" component="h2">
          {t('messagesApi.docs.title')}
        </Typography>

        <DocsSection title={t('messagesApi.docs.endpointTitle')}>
          <Typography variant="body2">{t('messagesApi.docs.endpointText')}</Typography>
          <CodeBlock
            code={url}
            copyLabel={t('messagesApi.docs.copyEndpoint')}
            testId="messages-api-endpoint"
          />
        </DocsSection>

        <DocsSection title={t('messagesApi.docs.tokenTitle')}>
          <Typography variant="body2">{t('messagesApi.docs.tokenText')}</Typography>
          <CodeBlock code={`Authorization: Bearer ${token}`} />
          <Box>
            <Button component={RouterLink} to="/connections" variant="outlined" size="small">
              {t('messagesApi.docs.goToConnections')}
            </Button>
          </Box>
        </DocsSection>

        <DocsSection title={t('messagesApi.docs.textTitle')}>
          <Typography variant="body2">{t('messagesApi.docs.textText')}</Typography>
          <CodeBlock
            code={textCurl({ url, token, body: t('messagesApi.docs.exampleBody') })}
            copyLabel={t('messagesApi.docs.copyTextExample')}
            testId="messages-api-curl-text"
          />
        </DocsSection>

        <DocsSection title={t('messagesApi.docs.mediaTitle')}>
          <Typography variant="body2">{t('messagesApi.docs.mediaText')}</Typography>
          <CodeBlock
            code={mediaCurl({
              url,
              token,
              caption: t('messagesApi.docs.exampleCaption'),
              file: t('messagesApi.docs.exampleFile'),
            })}
            copyLabel={t('messagesApi.docs.copyMediaExample')}
            testId="messages-api-curl-media"
          />
        </DocsSection>

        <DocsSection title={t('messagesApi.docs.idempotencyTitle')}>
          <Typography variant="body2">
            {t('messagesApi.docs.idempotencyText', {
              header: idempotencyHeaderName,
              hours: IDEMPOTENCY_KEY_TTL_HOURS,
            })}
          </Typography>
          <CodeBlock code={idempotencyExample(t('messagesApi.docs.exampleKey'))} />
        </DocsSection>

        <DocsSection title={t('messagesApi.docs.responseTitle')}>
          <Typography variant="body2">{t('messagesApi.docs.responseText')}</Typography>
          <CodeBlock code={prettyJson(exampleResponse(t('messagesApi.docs.exampleBody')))} />
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {externalMessageStatuses.map((status) => (
              <Typography key={status} component="li" variant="body2">
                <Code>{status}</Code>: {t(`messagesApi.docs.statuses.${status}`)}
              </Typography>
            ))}
          </Box>
        </DocsSection>

        <DocsSection title={t('messagesApi.docs.errorsTitle')}>
          <Typography variant="body2">{t('messagesApi.docs.errorsText')}</Typography>
          <CodeBlock code={prettyJson(exampleError)} />
          <TableContainer>
            <Table size="small" aria-label={t('messagesApi.docs.errorsTitle')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('messagesApi.docs.columns.status')}</TableCell>
                  <TableCell>{t('messagesApi.docs.columns.code')}</TableCell>
                  <TableCell>{t('messagesApi.docs.columns.meaning')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {errorRows.map((row) => (
                  <TableRow key={row.code}>
                    <TableCell>{row.status}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      <Code>{row.code}</Code>
                    </TableCell>
                    <TableCell>{t(`messagesApi.docs.errorRows.${row.key}`)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </DocsSection>
      </Stack>
    </Paper>
  );
};
