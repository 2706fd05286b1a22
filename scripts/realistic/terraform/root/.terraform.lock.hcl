# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.42.0"
  constraints = "~> 5.40"
  hashes = [
    "h1:ByhuklhOnLcQiuoiEyTCZv5mJ3i2dNkNMPO0/3Z2BDE=",
    "zh:3fe6e7be9ba057171ed40c227dab7ad28687b18d8ce14c8b6edd3a249018775a",
    "zh:bafcaba920f0ac5c57b39e4dbda513bd2d38de7c3bec5519cb674d999253f6b7",
    "zh:70db71c4a6d5169ee2c532cf9756a036a93f99f2e8a4987e06082c084826f652",
    "zh:88b065e74dd5a9ec0b0084f7de574f6d7f5364eb98d00ba6b51d8b61ea81606d",
    "zh:6acc5fa209ae3ad42d4cc06b3a1290fc187e81ac2c112e79373020538dcceab0",
    "zh:40eb60ed801cf3574e9ac62aa1b018a7374cc47ee0d33d024285a3e8267133ee",
    "zh:f78a2b517d521eaf4df03e1122d5189bb4d343a84b68f1c71dba58587dc7abbe",
    "zh:e0c18e67ea435e559f81d902837a0c109c3572d8d8a33341189c32bf71c61315",
  ]
}

provider "registry.terraform.io/hashicorp/random" {
  version     = "3.6.0"
  constraints = "~> 3.6"
  hashes = [
    "h1:iM6p/ulFp5HISwOcuuDoe2Nv6wzn5W1Te6+n/DQlvsQ=",
    "zh:999753ea56fca68d353e81ce74592c37f7525481775fdcc1ade2c9dbcbfa5cd5",
    "zh:87e15dc4738be54072ce2b9581ba40bba5c7bac6a99bd634ada11e9451fc914b",
    "zh:9c0109457924d5d63e2b585df625e510bba06c4cbb847ea73ddf5687b4ae07d4",
    "zh:f3660c08c2c0cf0e7f31f3257b05dee562bfc05ac8e65212fbc17bff601f4696",
  ]
}

provider "registry.terraform.io/hashicorp/kubernetes" {
  version = "2.27.0"
  constraints = ">= 2.25.0"
  hashes = [
    "h1:qogDhdYGVj7EJBbdoSBCCNqg5GuxV3nO0FbGbDcxbAA=",
    "zh:029d22e1fc83b786d700d83f57c8ded057c0bf6c0b9dbe79ceb56d9160effb82",
  ]
}
