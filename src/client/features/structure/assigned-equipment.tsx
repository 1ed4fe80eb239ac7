/**
 * The area and pool forms' machine part (spec part 2 §2.3, §2.4): the count of assigned equipment, the button
 * that opens the selection dialog, and a card per assigned machine (titles cut to 40 characters, §9). Choosing
 * machines moves them, which needs `equipment` update (the assign declaration, as the server requires for every
 * move): without it the button is disabled and says why.
 */
import { Badge, Box, Button, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { ListChecks } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { compareNames } from '../../../shared/domain/text';
import { assignEquipment } from '../../../shared/mutations/structure';
import { brandAndModel } from '../../../shared/domain/equipment';
import { useMayRun } from '../../lib/use-permission';
import type { SelectableEquipment } from './equipment-selection';
import { EquipmentSelectionDialog } from './equipment-selection-dialog';
import { truncateTitle } from './structure-view';

export interface AssignedEquipmentProps {
  equipment: readonly SelectableEquipment[];
  selected: readonly string[];
  targetName: string;
  onChange(selected: string[]): void;
  disabled?: boolean;
}

export function AssignedEquipment({ equipment, selected, targetName, onChange, disabled = false }: AssignedEquipmentProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const canMove = useMayRun(assignEquipment);
  const chosen = new Set(selected);
  const cards = equipment.filter((item) => chosen.has(item.nodeid)).sort((a, b) => compareNames(a.name, b.name, 'de'));

  return (
    <Stack as="section" gap="4" aria-labelledby="assigned-equipment-title">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Flex align="center" gap="3">
          <Heading id="assigned-equipment-title" as="h3" size="md">
            {t('areas.assigned')}
          </Heading>
          <Badge size="lg" variant="subtle" colorPalette="brand" data-testid="assigned-count">
            {cards.length}
          </Badge>
        </Flex>
        <Button variant="outline" onClick={() => setOpen(true)} disabled={disabled || !canMove} data-testid="selection-open">
          <ListChecks aria-hidden />
          {t('equipmentSelection.open')}
        </Button>
      </Flex>
      {!disabled && !canMove && <Text color="fg.muted">{t('areas.moveNotAllowed')}</Text>}
      {cards.length === 0 ? (
        <Text color="fg.muted">{t('areas.noneAssigned')}</Text>
      ) : (
        <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3 }} gap="3" listStyleType="none" m="0" p="0">
          {cards.map((item) => (
            <Card.Root as="li" key={item.nodeid} variant="outline" size="sm" data-testid="assigned-card">
              <Card.Body gap="1">
                <Card.Title as="h4" textStyle="md" title={item.name} truncate>
                  {truncateTitle(item.name)}
                </Card.Title>
                <Text textStyle="sm" color="fg.muted" truncate>
                  {[item.equipmentid, brandAndModel(item.brand, item.model)].filter(Boolean).join(' · ') || '—'}
                </Text>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      )}
      <Box>
        <EquipmentSelectionDialog
          open={open}
          equipment={equipment}
          selected={selected}
          targetName={targetName}
          onClose={() => setOpen(false)}
          onSave={(next) => {
            onChange(next);
            setOpen(false);
          }}
        />
      </Box>
    </Stack>
  );
}
