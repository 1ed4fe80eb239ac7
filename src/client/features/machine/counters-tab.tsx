/**
 * Counters tab (part 1 §2.1, §4.6, §5): table of the machine's counters with reading + unit and the date of the
 * latest reading; "Zählerstand erfassen" (equipment.counter create or update) records a new reading through
 * `addCounterReading`, so it shows at once and is sent later. Creating counters and counter types is not here yet.
 */
import { Box, Button, Card, HStack, Skeleton, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { Gauge, PencilLine } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { formatDate } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { usePermission } from '../../lib/use-permission';
import { useMachineCounters, type CounterItem } from '../../sync/machine-mirror';
import { CounterReadingDialog } from './counter-reading-dialog';
import { formatReading } from './format-reading';

export function CountersTab({ equipmentnodeid }: { equipmentnodeid: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const counters = useMachineCounters(equipmentnodeid, language);
  const canCreate = usePermission('equipment.counter', 'create');
  const canUpdate = usePermission('equipment.counter', 'update');
  const canRecord = canCreate || canUpdate;
  const [recording, setRecording] = useState<CounterItem | null>(null);

  if (!counters) return <Skeleton h="40" />;
  if (counters.length === 0) {
    return (
      <Card.Root variant="outline" bg="bg.panel" data-testid="counters-empty">
        <Card.Body>
          <HStack gap="4" align="start">
            <Box color="fg.muted" flexShrink={0}>
              <Gauge size={32} aria-hidden />
            </Box>
            <Stack gap="1">
              <Text fontWeight="semibold">{t('counterSlice.empty')}</Text>
              <Text color="fg.muted">{t('counterSlice.emptyHint')}</Text>
            </Stack>
          </HStack>
        </Card.Body>
      </Card.Root>
    );
  }

  return (
    <Card.Root variant="outline" bg="bg.panel">
      <Table.ScrollArea maxH="350px" borderRadius="l3">
        <Table.Root size="md" stickyHeader interactive>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('counterSlice.name')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('counterSlice.reading')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('counterSlice.updated')}</Table.ColumnHeader>
              {canRecord && (
                <Table.ColumnHeader>
                  <VisuallyHidden>{t('counterSlice.actions')}</VisuallyHidden>
                </Table.ColumnHeader>
              )}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {counters.map((counter) => (
              <Table.Row key={counter.nodeid} data-testid="counter-row">
                <Table.Cell>
                  <Text fontWeight="medium">{counter.name}</Text>
                  {counter.typeName && counter.typeName !== counter.name && (
                    <Text textStyle="sm" color="fg.muted">
                      {counter.typeName}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {counter.latest ? (
                    <HStack justify="end" gap="2">
                      {counter.latest.pending && <NotSyncedBadge />}
                      <Text fontVariantNumeric="tabular-nums">{formatReading(counter.latest.value, language, counter.unit)}</Text>
                    </HStack>
                  ) : (
                    <Text color="fg.muted">{t('counterSlice.noReading')}</Text>
                  )}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{counter.latest ? formatDate(counter.latest.takenat) : '—'}</Table.Cell>
                {canRecord && (
                  <Table.Cell textAlign="end">
                    <Button variant="outline" minW="11" onClick={() => setRecording(counter)} aria-label={t('counterSlice.recordFor', { name: counter.name })}>
                      <PencilLine aria-hidden />
                      <Box as="span" display={{ base: 'none', sm: 'inline' }}>
                        {t('counterSlice.record')}
                      </Box>
                    </Button>
                  </Table.Cell>
                )}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {recording && <CounterReadingDialog counter={recording} onClose={() => setRecording(null)} />}
    </Card.Root>
  );
}
