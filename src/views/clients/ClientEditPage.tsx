import { ClientEditPage } from './ClientFormPage';

export default ClientEditPage;
