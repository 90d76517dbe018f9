export { webRoutes, WEB_ASSETS_DIR } from './web.routes';
export { webSettingsOf, webConfigOf, type WebSettings, type WebConfig } from './web-settings';
