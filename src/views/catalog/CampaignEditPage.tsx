import { CampaignEditPage } from './CatalogFormPage';

export default CampaignEditPage;
