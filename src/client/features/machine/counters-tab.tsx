/**
 * Counters tab (part 1 §2.1 tab 5, §4.6, §5): the machine's counters — counter, reading with unit, last updated
 * (DD.MM.YYYY), edit icon — in a table of at most 350 px that scrolls, a chart of the selected counter's readings
 * and the §4.6 modal: "Zähler hinzufügen" (equipment.counter create) and the edit icon (update: a new reading;
 * delete, hidden for the built-in operating hours). All from the mirror, every write local first.
 */
import { Box, Button, Card, HStack, IconButton, Skeleton, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { Gauge, PencilLine, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { formatDate } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { usePermission } from '../../lib/use-permission';
import { useCounterDetails } from '../../sync/machine-counters';
import { CounterAddDialog } from './counter-add-dialog';
import { CounterChart } from './counter-chart';
import { CounterReadingDialog } from './counter-reading-dialog';
import { formatReading } from './format-reading';

export function CountersTab({ equipmentnodeid }: { equipmentnodeid: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const counters = useCounterDetails(equipmentnodeid, language);
  const canCreate = usePermission('equipment.counter', 'create');
  const canUpdate = usePermission('equipment.counter', 'update');
  const canDelete = usePermission('equipment.counter', 'delete');
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);

  if (!counters) return <Skeleton h="40" />;
  const editable = (builtin: boolean) => canUpdate || (canDelete && !builtin);
  const anyEditable = counters.some((counter) => editable(counter.type?.builtin === true));
  const chosen = counters.find((counter) => counter.nodeid === selected) ?? counters.find((counter) => counter.readings.length > 0) ?? counters[0];
  const editingCounter = counters.find((counter) => counter.nodeid === editing);
  const addButton = canCreate && (
    <Button colorPalette="brand" onClick={() => setAdding(true)} data-testid="counter-add">
      <Plus aria-hidden />
      {t('counterSlice.add')}
    </Button>
  );

  return (
    <Stack gap="4">
      {counters.length === 0 ? (
        <Card.Root variant="outline" bg="bg.panel" data-testid="counters-empty">
          <Card.Body>
            <HStack gap="4" align="start" justify="space-between" wrap="wrap">
              <HStack gap="4" align="start">
                <Box color="fg.muted" flexShrink={0}>
                  <Gauge size={32} aria-hidden />
                </Box>
                <Stack gap="1">
                  <Text fontWeight="semibold">{t('counterSlice.empty')}</Text>
                  <Text color="fg.muted">{canCreate ? t('counterSlice.emptyHintCreate') : t('counterSlice.emptyHint')}</Text>
                </Stack>
              </HStack>
              {addButton}
            </HStack>
          </Card.Body>
        </Card.Root>
      ) : (
        <>
          {addButton && <HStack justify="end">{addButton}</HStack>}
          <Card.Root variant="outline" bg="bg.panel">
            <Table.ScrollArea maxH="350px" borderRadius="l3" data-testid="counters-table">
              <Table.Root size="md" stickyHeader interactive>
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>{t('counterSlice.name')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('counterSlice.reading')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('counterSlice.updated')}</Table.ColumnHeader>
                    {anyEditable && (
                      <Table.ColumnHeader w="16">
                        <VisuallyHidden>{t('counterSlice.actions')}</VisuallyHidden>
                      </Table.ColumnHeader>
                    )}
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {counters.map((counter) => {
                    const unit = counter.type?.unit?.symbol ?? null;
                    const isChosen = counter.nodeid === chosen?.nodeid;
                    return (
                      <Table.Row
                        key={counter.nodeid}
                        data-testid="counter-row"
                        data-selected={isChosen || undefined}
                        bg={isChosen ? 'brand.subtle' : undefined}
                        cursor="pointer"
                        onClick={() => setSelected(counter.nodeid)}
                        aria-selected={isChosen}
                      >
                        <Table.Cell>
                          <HStack gap="2">
                            <Text fontWeight="medium">{counter.name}</Text>
                            {counter.pending && <NotSyncedBadge />}
                          </HStack>
                          {counter.type && counter.type.name !== counter.name && (
                            <Text textStyle="sm" color="fg.muted">
                              {counter.type.name}
                            </Text>
                          )}
                        </Table.Cell>
                        <Table.Cell textAlign="end" whiteSpace="nowrap">
                          {counter.latest ? (
                            <HStack justify="end" gap="2">
                              {counter.latest.pending && !counter.pending && <NotSyncedBadge />}
                              <Text fontVariantNumeric="tabular-nums" data-testid="counter-reading">
                                {formatReading(counter.latest.value, language, unit)}
                              </Text>
                            </HStack>
                          ) : (
                            <Text color="fg.muted">{t('counterSlice.noReading')}</Text>
                          )}
                        </Table.Cell>
                        <Table.Cell whiteSpace="nowrap">{counter.latest ? formatDate(counter.latest.takenat) : '—'}</Table.Cell>
                        {anyEditable && (
                          <Table.Cell textAlign="end">
                            {editable(counter.type?.builtin === true) && (
                              <IconButton
                                variant="outline"
                                size="lg"
                                // why "Zählerstand erfassen" when the user may record: that is what the icon does for a technician.
                                aria-label={t(canUpdate ? 'counterSlice.recordFor' : 'counterSlice.editFor', { name: counter.name })}
                                data-testid="counter-edit"
                                onClick={(event) => {
                                  event.stopPropagation();
                                  setEditing(counter.nodeid);
                                }}
                              >
                                <PencilLine aria-hidden />
                              </IconButton>
                            )}
                          </Table.Cell>
                        )}
                      </Table.Row>
                    );
                  })}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          </Card.Root>
          {chosen && (
            <Card.Root variant="outline" bg="bg.panel" data-testid="counter-chart-card">
              <Card.Header pb="0">
                <Text fontWeight="semibold">{t('counterSlice.chartTitle', { name: chosen.name })}</Text>
                {counters.length > 1 && (
                  <Text textStyle="sm" color="fg.muted">
                    {t('counterSlice.chartHint')}
                  </Text>
                )}
              </Card.Header>
              <Card.Body>
                <CounterChart name={chosen.name} readings={chosen.readings} unit={chosen.type?.unit?.symbol ?? null} />
              </Card.Body>
            </Card.Root>
          )}
        </>
      )}
      {adding && <CounterAddDialog equipmentnodeid={equipmentnodeid} onClose={() => setAdding(false)} />}
      {editingCounter && <CounterReadingDialog counter={editingCounter} canRecord={canUpdate} canDelete={canDelete} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
