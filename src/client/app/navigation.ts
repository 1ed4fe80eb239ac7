/**
 * The main areas of the app (navigation rail/drawer). An entry is shown only when its route is ready in the route
 * table, so areas appear as their issues land; `adminOnly` entries only for admins (userinfo.admin).
 */
import type { LucideIcon } from 'lucide-react';
import { Bell, CircleHelp, Factory, FileSpreadsheet, LayoutDashboard, SquareKanban, Users, Wrench, Cog } from 'lucide-react';
import { isRouteReady } from './route-table';

export interface NavItem {
  path: string;
  labelKey: 'dashboard' | 'machines' | 'sites' | 'export' | 'notifications' | 'maintenance' | 'planning' | 'users' | 'help';
  icon: LucideIcon;
  adminOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/dashboard', labelKey: 'dashboard', icon: LayoutDashboard },
  { path: '/machines', labelKey: 'machines', icon: Cog },
  { path: '/sites', labelKey: 'sites', icon: Factory },
  { path: '/export', labelKey: 'export', icon: FileSpreadsheet },
  { path: '/notifications-dashboard', labelKey: 'notifications', icon: Bell },
  { path: '/maintenance-dashboard', labelKey: 'maintenance', icon: Wrench },
  { path: '/aufgabeplanung', labelKey: 'planning', icon: SquareKanban },
  { path: '/users', labelKey: 'users', icon: Users, adminOnly: true },
  { path: '/HelpAndFeedbackPage', labelKey: 'help', icon: CircleHelp },
];

export function visibleNavItems(isAdmin: boolean, ready: (path: string) => boolean = isRouteReady): NavItem[] {
  return NAV_ITEMS.filter((item) => ready(item.path) && (!item.adminOnly || isAdmin));
}
