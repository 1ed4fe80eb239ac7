/**
 * Empty-state onboarding (spec part 2 §1): four action cards with a NEU button each. The equipment card's
 * button stays disabled until an area or a pool exists; the users card needs the user:create permission.
 * The plant and pool cards open the real forms (/create-site, /create-machine-pool); users and equipment are
 * pending routes until their issues build them (they show the 404 meanwhile).
 */
import { Box, Button, Card, SimpleGrid, Text } from '@chakra-ui/react';
import type { LucideIcon } from 'lucide-react';
import { Boxes, Cog, Factory, Plus, UserPlus } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../lib/use-permission';

type CardKey = 'site' | 'pool' | 'users' | 'equipment';

interface ActionCard {
  key: CardKey;
  to: string;
  icon: LucideIcon;
}

const CARDS: readonly ActionCard[] = [
  { key: 'site', to: '/create-site', icon: Factory },
  { key: 'pool', to: '/create-machine-pool', icon: Boxes },
  { key: 'users', to: '/add-user', icon: UserPlus },
  { key: 'equipment', to: '/create-machine', icon: Cog },
];

/** `equipmentBlocked`: true when the structure is known to have no area and no pool. */
export function OnboardingCards({ equipmentBlocked }: { equipmentBlocked: boolean }) {
  const { t } = useTranslation();
  const canAddUsers = usePermission('user', 'create');
  const cards = CARDS.filter((card) => card.key !== 'users' || canAddUsers);

  return (
    <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 4 }} gap="4" listStyleType="none" m="0" p="0">
      {cards.map(({ key, to, icon: Icon }) => {
        const disabled = key === 'equipment' && equipmentBlocked;
        const hintId = `onboarding-${key}-hint`;
        return (
          <Card.Root as="li" key={key} variant="outline" bg="bg.panel" data-testid={`onboarding-${key}`}>
            <Card.Body gap="3">
              <Box display="flex" alignItems="center" justifyContent="center" w="12" h="12" borderRadius="l2" bg="brand.subtle" color="brand.fg">
                <Icon size={26} aria-hidden />
              </Box>
              <Card.Title as="h3">{t(`dashboard.onboarding.${key}.title`)}</Card.Title>
              <Card.Description>{t(`dashboard.onboarding.${key}.text`)}</Card.Description>
              {disabled && (
                <Text id={hintId} textStyle="sm" color="fg.warning">
                  {t('dashboard.onboarding.equipment.disabledHint')}
                </Text>
              )}
            </Card.Body>
            <Card.Footer>
              {disabled ? (
                <Button disabled aria-describedby={hintId} aria-label={`${t('dashboard.onboarding.new')}: ${t(`dashboard.onboarding.${key}.title`)}`}>
                  <Plus aria-hidden />
                  {t('dashboard.onboarding.new')}
                </Button>
              ) : (
                <Button asChild aria-label={`${t('dashboard.onboarding.new')}: ${t(`dashboard.onboarding.${key}.title`)}`}>
                  <RouterLink to={to}>
                    <Plus aria-hidden />
                    {t('dashboard.onboarding.new')}
                  </RouterLink>
                </Button>
              )}
            </Card.Footer>
          </Card.Root>
        );
      })}
    </SimpleGrid>
  );
}
